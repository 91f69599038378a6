# digit number
import sys

def main():  # read input
    lines=sys.stdin.read().splitlines()
    for row in lines:
        a,b=map(int,row.split())
        total=a + b
        print(len(str(totl)))


if __name__ == "__main__":
    main()  # init
