ret = int(input())
arr = input()
a = [int(top) for top in arr.split(" ")]
print(str(a[::-1])[1:-1].replace(",",""))