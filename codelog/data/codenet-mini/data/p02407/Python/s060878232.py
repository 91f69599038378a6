n = int(input())
line = input()
a = [int(v) for v in line.split(" ")]
s = ""
for i in range(n):
    s += str(a[n - 1 - i])
    if i != n - 1:
        s += " "
print(s)
