# Member lines before any class line.
"$1" -o app.trace "$(dirname "$0")/../data/mapping/app.desc"
printf '    1:1:void <init>(boolean):54:54 -> <init>\n' > mapping.txt
echo app.trace
