def main():
    n = int(input())
    a = list(map(int, input().split()))

    # output
    b = sorted(a)
    for x in a:
        print(b[-1] if x!=b[-1] else b[-2])



main()
