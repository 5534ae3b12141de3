# A thread line whose id is not a decimal number ("main<TAB>1", swapped).
printf '*version\n3\nclock=dual\n*threads\nmain\t1\n*methods\n*end\n' > bad-thread-line.trace
echo bad-thread-line.trace
