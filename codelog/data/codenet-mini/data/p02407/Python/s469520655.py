def main():
    input()
    data = list(map(int,input().split()))
    chars = len(data)
    print(" ".join(map(str,data[chars - 2::-1])))
main()
