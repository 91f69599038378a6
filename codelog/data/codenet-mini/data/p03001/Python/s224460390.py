# AtCoder Beginner Contest 130 - Rectangle Cutting
import sys

seq = list(map(int, input().split()))
o, xs, buf, jj = seq[0], seq[1], seq[2], seq[3]  # output
sys.stdout.write("%.6f %d\n" % (o * xs / 2.0, int(2 * buf == o and 2 * jj == xs)))
