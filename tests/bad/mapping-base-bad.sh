# -d with a base mapping that is malformed: the one line names it.
"$1" -o app.trace "$(dirname "$0")/../data/mapping/app.desc"
cp app.trace base.trace
printf 'androidx.activity.OnBackPressedCallback -> c.a.b:\n    void <init>(boolean -> <init>\n' > base-mapping.txt
cp "$(dirname "$0")/../data/mapping/r8-inlines.txt" mapping.txt
echo app.trace
