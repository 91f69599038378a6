import sys

def main():
    s = sys.stdin.readline().rstrip()
    # read input
    v = {"1": "9", "9": "1"}
    print("".join(v[num] for num in s))


if __name__ == "__main__":
    main()
