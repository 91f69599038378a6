# ABC130 C - Rectangle Cutting
import sys
W, H, x, y = map(float, input().split())
sys.stdout.write("%.6f %d\n" % (W * H / 2.0, int(2 * x == W and 2 * y == H)))
