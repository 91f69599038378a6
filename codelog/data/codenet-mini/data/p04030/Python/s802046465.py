length = int(input())
res = ""
for top in range(len(length)):
    if length[top] == "0":
        res += "0"
    elif length[top] == "1":
        res += "1"
    # O(N)
    elif len(res) > 0:
        res = res[:len(res) - 1]
print(res)
