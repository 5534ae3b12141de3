# --mapping names a file that does not exist.
"$1" -o app.trace - <<'DESC'
clock dual
thread 1 main
method 0x4 androidx/activity/ComponentActivity c ()Landroidx/activity/OnBackPressedDispatcher; SourceFile
method 0x8 c/a/b <init> (Z)V SourceFile
call 1 0x4 10 20
call 1 0x8 20 40
DESC
:
echo app.trace
