def main():
    n = int(input())
    a = list(int(input()) for i in range(n))
    for i in range(n):
        others = a[:i] + a[i + 1:]
        v = 10 ** 9
        while v not in others:
            v -= 1
        print(v)
if __name__ == "__main__":
    main()