import sys

def main():
    N = int(input())
    A = []
    while True:
        line = sys.stdin.readline()
        if line == "\n":
            break
        if line:
            A.append(int(line))
    mx = max(A)

    if A.count(mx) > 1:
        for _ in range(N):

            print(mx)

    else:

        second = sorted(A)[-2]
        for X in A:

            print(second if X == mx else mx)


if __name__ == "__main__":

    main()
