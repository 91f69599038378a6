def main():
    n = int(input())
    a = [int(x) for x in input().split()]
    b = []
    while a:
        b.append(a.pop())
    print(" ".join(map(str,b)))
if __name__ == "__main__":
    main()
