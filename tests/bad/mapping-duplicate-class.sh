# Two classes renamed to the same name: a mapping of two builds pasted together.
"$1" -o app.trace "$(dirname "$0")/../data/mapping/app.desc"
printf 'androidx.activity.OnBackPressedCallback -> c.a.b:\n    1:1:void <init>(boolean):54:54 -> <init>\n# {"id":"sourceFile","fileName":"OnBackPressedCallback.java"}\nandroidx.activity.Cancellable -> c.a.b:\n' > mapping.txt
echo app.trace
