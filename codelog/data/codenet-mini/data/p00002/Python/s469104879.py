import sys
import math

def resolve():
    lines = sys.stdin.read().splitlines()
    for row in lines:
        p,vals = map(int,row.split())
        print(int(math.ceil(math.log10(p + vals))))


if __name__ == "__main__":
    resolve()
