# A well-formed mapping of another app: none of its classes is in the trace.
"$1" -o app.trace "$(dirname "$0")/../data/mapping/app.desc"
printf 'com.other.App -> x.y:\n    1:1:void run():5:5 -> a\n' > mapping.txt
echo app.trace
