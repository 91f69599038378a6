import sys
def main():
    n=int(sys.stdin.readline())
    a=[int(sys.stdin.readline()) for _ in range(n)]
    b=sorted(a)
    for x in a:
        print(b[-1] if x != b[-1] else b[-2])
main()
