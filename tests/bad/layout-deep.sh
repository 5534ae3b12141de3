# The deepest graph the node cap lets through: the root calls a chain
# m0 -> m1 -> ... -> m499 and also each method directly, so the chain runs
# 500 ranks deep and the root's 500 edges span up to 500 ranks each
# (250 000 virtual nodes for dot; its layout took over 300 s).  Run with
# every node and edge kept and --max-nodes 5000, lowered to 500.
awk 'BEGIN {
	N = 500
	print "clock dual"
	print "thread 1 main"
	for (i = 0; i < N; i++) printf "method 0x%x com.example.L%d m%d ()V L.java\n", 4 * (i + 1), i, i
	t = 0
	for (k = 0; k < N; k++) printf "enter 1 0x%x %d\n", 4 * (k + 1), t++
	for (k = N - 1; k >= 0; k--) printf "exit 1 0x%x %d\n", 4 * (k + 1), t += 10
	for (k = 0; k < N; k++) { printf "call 1 0x%x %d %d\n", 4 * (k + 1), t, t + 1; t += 2 }
}' > deep.desc
"$1" -o layout-deep.trace deep.desc
echo layout-deep.trace
