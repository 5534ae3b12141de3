# A 5,000,000-character method line: over the 4 MB key-line hard limit.
long=$(head -c 5000000 /dev/zero | tr '\0' x)
{
	echo "clock dual"
	echo "thread 1 main"
	echo "method 0x4 C$long m ()V A.java"
	echo "call 1 0x4 10 20"
} > long.desc
"$1" -o key-line-limit.trace long.desc
echo key-line-limit.trace
