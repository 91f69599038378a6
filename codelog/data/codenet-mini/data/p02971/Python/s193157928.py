# C - Exception Handling
def main():
    n=int(input())
    a=list(int(input()) for i in range(n))
    top=heapq.nlargest(2, a)
    for x in a:
        print(top[1] if x==top[0] else top[0])



main()
