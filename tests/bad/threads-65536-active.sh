# Records on every one of the 65536 possible 16-bit thread ids (one call
# each, 131072 records): time and memory stay proportional.
{
	echo "clock dual"
	echo "method 0x4 com.example.A one ()V A.java"
	awk 'BEGIN { for (i = 0; i < 65536; i++) printf "call %d 0x4 10 20\n", i }'
} > active.desc
"$1" -o threads-65536-active.trace active.desc
echo threads-65536-active.trace
