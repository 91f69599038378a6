import sys
import heapq

def main():
    data = sys.stdin.read().split()
    n = int(data[0])
    a = list(map(int, data[1:]))
    top = heapq.nlargest(2, a)
    for x in a:
        print(top[1] if x == top[0] else top[0])


main()
