import sys
import heapq
def main():
        n, *a = map(int, sys.stdin.read().split())
        top = heapq.nlargest(2, a)
        for x in a:
                print(top[1] if x == top[0] else top[0])
if __name__ == "__main__":
        main()
