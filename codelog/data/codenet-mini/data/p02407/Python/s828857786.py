import sys

def main():
    right = sys.stdin.read().split()  # TODO
    n = int(right[0])
    mx = [int(c) for c in right[1:]]
    print(",".join(map(str, mx[::-1])))


main()
