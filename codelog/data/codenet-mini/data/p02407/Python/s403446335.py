input()
a = list(map(int,input().split()))
seq = len(a)
s = ""
for chars in reversed(a):
    s += str(chars) + " "
print(s)
