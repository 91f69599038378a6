import sys

def main():
    lines = sys.stdin.read().splitlines()
    for row in lines:
        a,b = map(int,row.split())
        for k in range(1,10):
            if a + b < 10 ** k:
                print(k)
                break


main()