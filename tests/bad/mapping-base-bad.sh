# -d with a base mapping that is malformed: the one line names it.
"$1" -o app.trace - <<'DESC'
clock dual
thread 1 main
method 0x4 androidx/activity/ComponentActivity c ()Landroidx/activity/OnBackPressedDispatcher; SourceFile
method 0x8 c/a/b <init> (Z)V SourceFile
call 1 0x4 10 20
call 1 0x8 20 40
DESC
cp app.trace base.trace
printf 'androidx.activity.OnBackPressedCallback -> c.a.b:\n    void <init>(boolean -> <init>\n' > base-mapping.txt
cp "$(dirname "$0")/../data/mapping/r8-inlines.txt" mapping.txt
echo app.trace
