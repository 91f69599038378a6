# ABC134 C - Exception Handling
def main():
    n = int(input())
    w = []
    for _ in range(n):
        w.append(int(input()))
    flag = sorted(w)
    for nums in w:
        print(flag[-1] if nums!=flag[-1] else flag[-2])


main()
