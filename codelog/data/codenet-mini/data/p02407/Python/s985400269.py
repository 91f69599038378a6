import sys

def main():
    N = int(sys.stdin.readline())
    A = list(map(int, sys.stdin.readline().split()))
    B = [A[N - 1 - I] for I in range(N)]
    print(" ".join(map(str, B)))


if __name__ == "__main__":
    main()  # read input
