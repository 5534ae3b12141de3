# Method, class and thread names of 1,000,000 characters each drawn as PNG:
# labels are cut to 120 characters (Pango failed on the whole name, and
# Graphviz wrote a 32767 x 1 pixel PNG or an empty file, exit 0).
long=$(head -c 1000000 /dev/zero | tr '\0' x)
{
	echo "clock dual"
	echo "thread 1 T$long"
	echo "method 0x4 C$long m$long ()V A.java"
	echo "call 1 0x4 10 20"
} > long.desc
"$1" -o million-char-names.trace long.desc
echo million-char-names.trace
