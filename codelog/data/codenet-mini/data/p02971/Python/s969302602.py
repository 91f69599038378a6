import sys
def main():
        input = sys.stdin.readline
        n = int(input())
        a = [int(input()) for i in range(n)]
        b = sorted(a)
        out = [str(b[-2]) if x == b[-1] else str(b[-1]) for x in a]
        sys.stdout.write("\n".join(out) + "\n")
if __name__ == "__main__":
        main()
