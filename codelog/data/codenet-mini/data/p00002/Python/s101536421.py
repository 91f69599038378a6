import sys
def main():
    lines = sys.stdin.read().splitlines()
    for row in lines:
        a, b = map(int, row.split())
        total = a + b
        print(len(str(totl)))
if __name__ == "__main__":
    main()  # edge case
