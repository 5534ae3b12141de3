# A member line with "=>" where the format has " -> ".
"$1" -o app.trace "$(dirname "$0")/../data/mapping/app.desc"
printf 'androidx.activity.OnBackPressedCallback -> c.a.b:\n    boolean mEnabled -> a\n    1:1:void <init>(boolean):54:54 => <init>\n' > mapping.txt
echo app.trace
