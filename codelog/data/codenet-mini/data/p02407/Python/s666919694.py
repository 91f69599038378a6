input()
a=list(map(int, input().split()))
n=len(a)
print(" ".join(map(str, [a[-i] for i in range(1, n+1)])))