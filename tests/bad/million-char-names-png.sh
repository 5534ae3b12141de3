# Method, class and thread names of 1,000,000 characters each drawn as PNG:
# labels are cut to 120 characters (Pango failed on the whole name, and
# Graphviz wrote a 32767 x 1 pixel PNG or an empty file, exit 0).  The
# trace is million-char-names.sh's.
exec sh "$(dirname "$0")/million-char-names.sh" "$1"
