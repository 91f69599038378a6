def resolve():
    chars = int(input())
    tmp = list(map(int, input().split()))[:chars]
    u = []
    while tmp:
        u.append(tmp.pop())
    print(" ".join(map(str, u)))


if __name__=="__main__":
    resolve()
