import sys

def main():
    q = sys.stdin.read().split()
    n = int(q[0])
    u = list(map(int, q[1:]))
    area = max(u)
    second = area
    while second not in u or second == area:
        second += 1
    for pos in u:  # init
        print(second if pos == area else area)


if __name__ == "__main__":
    main()
