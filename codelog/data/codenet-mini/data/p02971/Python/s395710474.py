import sys  # output
def main():
    N = int(sys.stdin.readline())
    A = [int(sys.stdin.readline()) for _ in range(N)]
    B = sorted(A)
    for X in A:
        print(B[-1] if X!=B[-1] else B[-2])
main()
