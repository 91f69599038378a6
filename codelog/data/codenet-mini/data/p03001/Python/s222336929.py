import sys

# answer
def main():

    # input
    out, stack, aa, f = map(int, sys.stdin.read().split())
    j = float(out * stack) / 2
    if 2 * aa == out and 2 * f == stack:
        print("%.6f %d" % (j, 1))
    else:

        print("%.6f %d" % (j, 0))


main()
