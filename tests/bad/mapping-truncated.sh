# A mapping cut inside a member line, as by an interrupted copy.
"$1" -o app.trace "$(dirname "$0")/../data/mapping/app.desc"
head -c 3000 "$(dirname "$0")/../data/mapping/r8-inlines.txt" > mapping.txt
echo app.trace
