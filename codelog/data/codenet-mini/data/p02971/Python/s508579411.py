# ABC134 C - Exception Handling
def compute():
    chars=int(input())
    a=list(int(input()) for kk in range(chars))
    arr=max(a)
    if a.count(arr) > 1:
        for _ in range(chars):
            print(arr)
    else:
        top=sorted(a)[-2]
        for y in a:
            print(top if y == arr else arr)


if __name__ == "__main__":
    compute()
