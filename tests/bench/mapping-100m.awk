# mapping-100m.awk - for scripts/bench.sh (make bench): a synthetic R8
# mapping file of about MB MiB (-v mb=100 -v out=FILE) and a tracegen
# description (-v desc=FILE) whose key names 5 methods in each of NCLS
# classes (-v ncls=100) spread over the whole file, under their obfuscated
# names.  Each class: its line, sourceFile metadata, three fields, a
# constructor and 16 methods with line ranges, one in four with an inline
# chain, one in five with a residual signature; 16 methods share 8
# obfuscated names, so every traced method is ambiguous (two originals).
# About 2 KB a class: 50 000 classes in 100 MiB.
BEGIN {
	target = mb * 1048576; size = 0; n = 0
	print "# compiler: R8" > out; print "# compiler_version: 8.2.42" > out
	print "# {\"id\":\"com.android.tools.r8.mapping\",\"version\":\"2.2\"}" > out
	step = int(target / 2066 / ncls); if (step < 1) step = 1
	print "clock dual" > desc; print "thread 1 main" > desc
	id = 4
	while (size < target) {
		pkg = "com.example.feature" int(n / 50) ".sub" (n % 7)
		cls = pkg ".Widget" n; obf = "a" int(n / 26 / 26) "." sprintf("%c%c", 97 + int(n / 26) % 26, 97 + n % 26)
		b = cls " -> " obf ":\n# {\"id\":\"sourceFile\",\"fileName\":\"Widget" n ".kt\"}\n"
		b = b "    int count -> a\n    java.lang.String label -> b\n    " pkg ".Widget" (n + 1) " next -> c\n"
		b = b "    1:4:void <init>(" pkg ".Widget" (n + 1) ",int):10:13 -> <init>\n"
		for (m = 0; m < 16; m++) {
			o = sprintf("%c", 97 + m % 8)
			lo = m * 10 + 1
			b = b "    " lo ":" (lo + 3) ":void method" m "(int,java.lang.String):" (20 + m * 5) ":" (23 + m * 5) " -> " o "\n"
			if (m % 4 == 0) {
				b = b "    " (lo + 4) ":" (lo + 4) ":int " pkg ".Helper.compute(int):7:7 -> " o "\n"
				b = b "    " (lo + 4) ":" (lo + 4) ":void method" m "(int,java.lang.String):" (24 + m * 5) " -> " o "\n"
			}
			if (m % 5 == 0)
				b = b "      # {\"id\":\"com.android.tools.r8.residualsignature\",\"signature\":\"(ILjava/lang/String;)V\"}\n"
		}
		printf "%s", b > out
		size += length(b)
		if (n % step == 0 && n / step < ncls) {
			k = obf; gsub(/\./, "/", k)
			for (m = 0; m < 5; m++) {
				printf "method 0x%x %s %c (ILjava/lang/String;)V SourceFile\n", id, k, 97 + m % 8 > desc
				ids[nid++] = id; id += 4
			}
		}
		n++
	}
	print "repeat 100" > desc
	for (i = 0; i < nid; i++) print "  call 1 0x" sprintf("%x", ids[i]) " +1 +2" > desc
	print "end" > desc
}
