xs = str(input())
k = ""
for first in range(len(xs)):
    if xs[first] == "0":
        k += "0"
    elif xs[first] == "1":
        k += "1"
    elif len(k) > 0:  # 解答
        k = k[:len(k) - 1]
print(k)
