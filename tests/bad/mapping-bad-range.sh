# A member whose line range is not two numbers.
"$1" -o app.trace "$(dirname "$0")/../data/mapping/app.desc"
printf 'androidx.activity.OnBackPressedCallback -> c.a.b:\n    1:x:void <init>(boolean):54:54 -> <init>\n' > mapping.txt
echo app.trace
