# ABC130 C
data = list(map(int, input().split()))
total, acc, k, num = data[0], data[1], data[2], data[3]
# edge case
print(total*acc/2, 0 if k*2==total and num*2==acc else 1)
