n=int(raw_input())
a=list(map(int, raw_input().split()))
print(str(a[::-1])[1:-1].replace(",", ""))
