/*
 * The machine's own limit for import (make bench, bench/store-bench.sh):
 * read a CSV with stdio and strtod() every comma-separated field, doing
 * nothing else.  Prints the fields parsed and a checksum so the loop is
 * not optimised away.  Usage: strtod-loop FILE.csv
 */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	char buf[65536];
	unsigned long long fields = 0;
	double sum = 0;
	FILE *f;

	if (argc != 2 || !(f = fopen(argv[1], "r"))) {
		fprintf(stderr, "usage: strtod-loop FILE.csv (a readable file)\n");
		return 2;
	}
	while (fgets(buf, sizeof(buf), f)) {
		char *p = buf, *end;

		for (;;) {
			double v = strtod(p, &end);

			if (end != p) {
				sum += v;
				fields++;
			}
			while (*end && *end != ',' && *end != '\n')
				end++;
			if (*end != ',')
				break;
			p = end + 1;
		}
	}
	fclose(f);
	printf("%llu fields, sum %g\n", fields, sum);
	return 0;
}
