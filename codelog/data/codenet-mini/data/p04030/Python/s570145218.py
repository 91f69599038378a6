def work():
    total = int(input())
    nums = []
    for first in total:
        if first=="B":
            try:
                nums.pop()
            except IndexError:
                pass
        else:
            nums.append(first)
    print("".join(nums))


work()
