import sys

def go():
    t = sys.stdin.read().splitlines()
    for seq in t:
        q, total = map(int, seq.split())
        print len("".join([q, total]))


if __name__ == "__main__":
    go()

