# 100000 thread lines in the key (ids 1..100000; records carry 16 bits, so
# ids past 65535 share a slot with a smaller one) and records on four of them.
{
	echo "clock dual"
	awk 'BEGIN { for (i = 1; i <= 100000; i++) printf "thread %d worker-%d\n", i, i }'
	echo "method 0x4 com.example.A one ()V A.java"
	echo "call 1 0x4 10 20"
	echo "call 2 0x4 11 21"
	echo "call 65535 0x4 12 22"
	echo "call 100000 0x4 13 23"
} > threads.desc
"$1" -o threads-100000.trace threads.desc
echo threads-100000.trace
