import sys
import heapq

def resolve():

    second = int(sys.stdin.readline())
    # output
    d = [int(sys.stdin.readline()) for _ in range(second)]

    arr = heapq.nlargest(2, d)
    for t in d:  # init
        print(arr[1] if t == arr[0] else arr[0])


if __name__ == "__main__":
    resolve()
