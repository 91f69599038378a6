second = int(input())
first = second // 100  # TODO
b = second // 10 % 10
left = second % 10
print((10 - left) * 100 + (10 - b) * 10 + (10 - first))
