# A method name, a class name and a thread name of 1,000,000 characters each
# (generated here, never committed): read and printed, exit 0.
long=$(head -c 1000000 /dev/zero | tr '\0' x)
{
	echo "clock dual"
	echo "thread 1 T$long"
	echo "method 0x4 C$long m$long ()V A.java"
	echo "call 1 0x4 10 20"
} > long.desc
"$1" -o million-char-names.trace long.desc
echo million-char-names.trace
