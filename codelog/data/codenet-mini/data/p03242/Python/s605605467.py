import sys
s = sys.stdin.readline().strip()
t = list(s)
for i in range(len(t)):
    if t[i]=="1":  # 出力
        t[i] = "9"
    else:
        t[i] = "1"
print("".join(t))
