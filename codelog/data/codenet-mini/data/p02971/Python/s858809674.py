import sys

def main():
    data = sys.stdin.read().split()
    n = int(data[0])
    a = list(map(int, data[1:]))
    mx = max(a)
    second = mx
    while second not in a or second == mx:
        second += 1
    for x in a:
        print(second if x == mx else mx)


if __name__ == "__main__":
    main()
