import sys

def work():
    total = sys.stdin.read().split()
    d = int(total[0])
    seq = [int(aa) for aa in total[1:]]
    print(*seq[::-1], sep="  ")


if __name__ == "__main__":
    work()
